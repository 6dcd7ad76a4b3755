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
