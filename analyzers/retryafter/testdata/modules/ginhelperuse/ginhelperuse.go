// Package ginhelperuse: gin handlers that write their status through a
// helper of another package taking the context as a context.Context.
package ginhelperuse

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"example.com/shedmod/ginhelper"
)

var errDown = errors.New("database unavailable")

// ---- positives ----

func UpdateToken(c *gin.Context) {
	ginhelper.HandleError(c, http.StatusServiceUnavailable, errDown) // want `handler UpdateToken writes 503 Service Unavailable on a path where Retry-After was not set; set c.Header\("Retry-After", "5"\)`
}

func CreateBuild(c *gin.Context, pending, limit int) {
	if pending >= limit {
		ginhelper.HandleError(c, http.StatusTooManyRequests, errors.New("build limit reached")) // want `handler CreateBuild writes 429 Too Many Requests`
		return
	}
	c.Status(http.StatusCreated)
}

// ---- traps ----

// statusPassedToGuidedHelper: the helper sets Retry-After before it writes.
func statusPassedToGuidedHelper(c *gin.Context) { // want statusPassedToGuidedHelper:"setsRetryAfter"
	ginhelper.HandleErrorGuided(c, http.StatusServiceUnavailable, errDown)
}

// notFoundThroughHelper: a status that is not a shed.
func notFoundThroughHelper(c *gin.Context) {
	ginhelper.HandleError(c, http.StatusNotFound, errDown)
}

// statusToHelperThatWritesNothing: the helper takes a context.Context but
// never recovers the framework's context from it.
func statusToHelperThatWritesNothing(c *gin.Context) {
	ginhelper.LogStatus(c, http.StatusServiceUnavailable, errDown)
	c.Status(http.StatusInternalServerError)
}

// headerSetBeforeHelper: Retry-After set on the context before the helper
// writes.
func headerSetBeforeHelper(c *gin.Context) { // want headerSetBeforeHelper:"setsRetryAfter"
	c.Header("Retry-After", "5")
	ginhelper.HandleError(c, http.StatusServiceUnavailable, errDown)
}

// ---- a status decided in a callee and returned as a value ----

// compileAndQueue decides the status: its 429 is reported where it is
// returned, since the handlers below write that result as their status.
func compileAndQueue(c *gin.Context, pending, limit int) (string, int, error) { // want compileAndQueue:"returnsShedStatus\\(result 1: 429 Too Many Requests\\)"
	if pending < 0 {
		return "", http.StatusBadRequest, errors.New("bad count")
	}
	if pending >= limit {
		return "", http.StatusTooManyRequests, errors.New("build limit reached") // want `compileAndQueue returns 429 Too Many Requests as the status that handler PostBuild writes on a path where Retry-After was not set`
	}
	return "item", http.StatusCreated, nil
}

func PostBuild(c *gin.Context) {
	_, code, err := compileAndQueue(c, 3, 2)
	if err != nil {
		ginhelper.HandleError(c, code, err)
		return
	}
	c.Status(code)
}

// RestartBuild writes the same result: the return is reported once.
func RestartBuild(c *gin.Context) {
	if _, code, err := compileAndQueue(c, 1, 2); err != nil {
		c.AbortWithStatusJSON(code, gin.H{"error": err.Error()})
	}
}

// QueueFromOtherPackage writes a status a callee of another package decided:
// reported at the write, naming the callee.
func QueueFromOtherPackage(c *gin.Context) {
	code, err := ginhelper.QueueBuild(3, 2)
	if err != nil {
		ginhelper.HandleError(c, code, err) // want `QueueBuild returns 429 Too Many Requests as the status that handler QueueFromOtherPackage writes`
	}
}

// statusResultWithRetryAfter: the handler sets Retry-After before writing
// whatever status the callee decided.
func statusResultWithRetryAfter(c *gin.Context) { // want statusResultWithRetryAfter:"setsRetryAfter"
	c.Header("Retry-After", "30")
	if _, code, err := compileAndQueue(c, 3, 2); err != nil {
		ginhelper.HandleError(c, code, err)
	}
}

// statusResultLogged: the callee's status is only logged, the response is a
// 500.
func statusResultLogged(c *gin.Context) {
	if _, code, err := validateOnly(3); err != nil {
		c.AbortWithStatusJSON(http.StatusInternalServerError, gin.H{"error": err.Error(), "code": code})
	}
}

// validateOnly returns no shed status: its callers are not reported.
func validateOnly(n int) (string, int, error) {
	if n > 2 {
		return "", http.StatusBadRequest, errors.New("too many")
	}
	return "", http.StatusOK, nil
}

// statusResultNotShed writes a status decided by a callee that never
// returns a 429 or 503.
func statusResultNotShed(c *gin.Context) {
	if _, code, err := validateOnly(3); err != nil {
		ginhelper.HandleError(c, code, err)
	}
}

// decideWithHeader decides the status and sets Retry-After on the
// context itself: its callers are fine.
func decideWithHeader(c *gin.Context, full bool) (int, error) { // want decideWithHeader:"setsRetryAfter"
	if full {
		c.Header("Retry-After", "5")
		return http.StatusServiceUnavailable, errors.New("full")
	}
	return http.StatusOK, nil
}

func statusFromGuidingCallee(c *gin.Context) { // want statusFromGuidingCallee:"setsRetryAfter"
	if code, err := decideWithHeader(c, true); err != nil {
		ginhelper.HandleError(c, code, err)
	}
}

// statusWrittenOnSuccess: the callee returns its 429 together with an
// error, and the handler writes the status only when the error is nil.
func statusWrittenOnSuccess(c *gin.Context) {
	item, code, err := reserveSlot(3)
	if err != nil {
		c.AbortWithStatusJSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.JSON(code, item)
}

// otherPackageStatusOnSuccess: the same with a callee of another package,
// known by its fact.
func otherPackageStatusOnSuccess(c *gin.Context) {
	code, err := ginhelper.QueueBuild(3, 2)
	if err == nil {
		c.Status(code)
	}
}

// reserveSlot returns its 503 only with an error; its one caller writes the
// status only without one.
func reserveSlot(n int) (string, int, error) { // want reserveSlot:"returnsShedStatus\\(result 1: 503 Service Unavailable\\)"
	if n > 2 {
		return "", http.StatusServiceUnavailable, errors.New("no slot")
	}
	return "slot", http.StatusCreated, nil
}
