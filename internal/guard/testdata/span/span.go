package span // span: package span

// Each "span:" comment names the text a diagnostic reported where that text
// starts on the line must cover.

import (
	"fmt"
	"net/http"
)

type pool struct { // span: pool struct {
	size int
}

func loop(url string, q []string) { // span: func loop(url string, q []string) {
	resp, err := http.Get(url) // span: http.Get(url)
	if err == nil {
		resp.Body.Close()
	}
	q = append(q, url) // span: q = append(q, url)
	go func() {        // span: go func() {
		fmt.Println(len(q), pool{}.size)
	}()
	for i := 0; i < 3; i++ { // span: for i := 0; i < 3; i++ {
		switch i {
		case 1: // span: case 1:
			fmt.Println(i)
		}
	}
	// span: (a comment: no syntax starts here, the range is left as it was)
}
