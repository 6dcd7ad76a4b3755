// Package ginshed: gin handlers that shed with 429 or 503, with and without
// Retry-After.
package ginshed

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
)

type limiter struct{ full, draining bool }

// ---- positives ----

func (l *limiter) Middleware(c *gin.Context) {
	if l.full {
		c.AbortWithStatus(http.StatusTooManyRequests) // want `ERR_MISSING_RETRY_AFTER: handler \(\*ginshed.limiter\).Middleware writes 429 Too Many Requests on a path where Retry-After was not set; set c.Header\("Retry-After", "5"\) before writing it`
		return
	}
	c.Next()
}

func (l *limiter) Create(c *gin.Context) {
	if l.draining {
		c.JSON(http.StatusServiceUnavailable, gin.H{"error": "draining"}) // want `handler \(\*ginshed.limiter\).Create writes 503 Service Unavailable`
		return
	}
	c.JSON(http.StatusCreated, gin.H{})
}

func abortJSON(c *gin.Context, busy bool) {
	if busy {
		c.AbortWithStatusJSON(429, gin.H{"error": "slow down"}) // want `handler abortJSON writes 429 Too Many Requests`
	}
}

func plain(c *gin.Context) {
	c.String(http.StatusServiceUnavailable, "busy") // want `handler plain writes 503`
}

func statusThenData(c *gin.Context) {
	c.Status(http.StatusTooManyRequests)                             // want `handler statusThenData writes 429`
	c.Data(http.StatusTooManyRequests, "text/plain", []byte("busy")) // want `handler statusThenData writes 429`
}

// The header is set on one branch only.
func oneBranch(c *gin.Context, n int) { // want oneBranch:"setsRetryAfter"
	if n > 10 {
		c.Header("Retry-After", "5")
		c.AbortWithStatus(http.StatusTooManyRequests)
		return
	}
	if n > 5 {
		c.AbortWithStatus(http.StatusTooManyRequests) // want `handler oneBranch writes 429`
	}
}

// respond writes the status it is passed: each caller passing a shed
// status is reported.
func respond(c *gin.Context, status int, msg string) { // want respond:"writesStatus\\(param 1\\)"
	c.JSON(status, gin.H{"error": msg})
}

func viaHelper(c *gin.Context) {
	respond(c, http.StatusTooManyRequests, "slow down") // want `handler viaHelper writes 429`
}

func routes(r *gin.Engine, l *limiter) {
	r.POST("/items", func(c *gin.Context) {
		c.AbortWithStatus(http.StatusServiceUnavailable) // want `the handler literal in routes writes 503`
	})
}

// ---- traps ----

// Retry-After set with c.Header before the status.
func guided(c *gin.Context) { // want guided:"setsRetryAfter"
	c.Header("Retry-After", strconv.Itoa(5))
	c.AbortWithStatus(http.StatusTooManyRequests)
}

// Retry-After set on the net/http header gin exposes.
func guidedWriter(c *gin.Context) { // want guidedWriter:"setsRetryAfter"
	c.Writer.Header().Set("retry-after", "5")
	c.JSON(http.StatusServiceUnavailable, gin.H{})
}

// Another header named like it does not count, but a 4xx that is not a shed is fine.
func badRequest(c *gin.Context) {
	c.Header("X-Retry", "5")
	c.AbortWithStatus(http.StatusBadRequest)
}

// A probe's 503 tells the balancer to stop sending traffic.
func mount(r *gin.Engine, ready func() bool) {
	r.GET("/readyz", func(c *gin.Context) {
		if !ready() {
			c.AbortWithStatus(http.StatusServiceUnavailable)
			return
		}
		c.Status(http.StatusOK)
	})
}

// A status read from an outbound response and passed on is not written here
// as a constant: the helper's callers are judged.
func proxyStatus(c *gin.Context) {
	resp, err := http.Get("http://127.0.0.1:1/")
	if err != nil {
		c.AbortWithStatus(http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	c.Status(resp.StatusCode)
}

// A helper passed a non-shed status.
func viaHelperOK(c *gin.Context) {
	respond(c, http.StatusConflict, "exists")
}
