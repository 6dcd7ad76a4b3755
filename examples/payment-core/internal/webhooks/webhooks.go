// Package webhooks tells merchants about settled payments.
package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"sync"
	"time"
)

// Subscriber is a merchant endpoint that wants payment events.
type Subscriber struct {
	MerchantID string
	URL        string
}

// Event is what a subscriber receives.
type Event struct {
	Type      string `json:"type"`
	PaymentID string `json:"payment_id"`
	Amount    int64  `json:"amount_cents"`
}

// Notifier posts events to merchant endpoints.
type Notifier struct {
	Client *http.Client
}

// New returns a Notifier whose calls give up after timeout.
func New(timeout time.Duration) *Notifier {
	return &Notifier{Client: &http.Client{Timeout: timeout}}
}

// Broadcast posts the event to every subscriber at once and waits for all
// of them. A payment for a marketplace seller can have thousands of
// subscribers, and each slow endpoint holds a goroutine and a socket for up
// to the client timeout: the fan-out has no bound.
func (n *Notifier) Broadcast(ctx context.Context, ev Event, subs []Subscriber) {
	body, err := json.Marshal(ev)
	if err != nil {
		log.Printf("webhooks: encoding %s: %v", ev.Type, err)
		return
	}
	var wg sync.WaitGroup
	for _, s := range subs {
		wg.Go(func() {
			if err := n.post(ctx, s, body); err != nil {
				log.Printf("webhooks: merchant %s: %v", s.MerchantID, err)
			}
		})
	}
	wg.Wait()
}

func (n *Notifier) post(ctx context.Context, s Subscriber, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s answered %s", s.URL, resp.Status)
	}
	return nil
}
