// Package relayadmin serves the operator's pages beside the relay's; its // want package:`noContextWaitsReported\(1\)` package:`pendingWaits\(1\)`
// handler reaches the quota goroutine too, which relayctl, before it,
// reported at its go statement: silent here.
package relayadmin

import (
	"github.com/gin-gonic/gin"

	"example.com/quota"
	"relayctl"
)

var _ = relayctl.Text

func Refund(c *gin.Context) { // want Refund:"waitsNoContext"
	quota.ReturnQuota(c.Request.Context(), 3)
}
