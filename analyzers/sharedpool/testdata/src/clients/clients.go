// Package clients shares outbound HTTP clients and transports. // want package:`lanes\(`
package clients

import "net/http"

//bhlint:lane card_auth
func callIssuer() {
	http.DefaultClient.Get("https://issuer.example") // want `net/http.DefaultClient|http.DefaultClient, an HTTP client with no lane, is reached from lanes card_auth and fraud`
}

//bhlint:lane fraud
func callScorer() {
	http.DefaultClient.Get("https://scorer.example")
}

var sharedTransport = &http.Transport{}

//bhlint:lane card_auth
var IssuerClient = &http.Client{Transport: sharedTransport} // want IssuerClient:`lane\(card_auth\)` `one HTTP transport, clients.sharedTransport, is given to lanes card_auth and fraud \(lane card_auth by clients.IssuerClient; lane fraud by clients.ScorerClient\)`

//bhlint:lane fraud
var ScorerClient = /* want ScorerClient:`lane\(fraud\)` */ &http.Client{Transport: sharedTransport}

// Each lane its own transport: silent.
//
//bhlint:lane tax
var TaxClient = /* want TaxClient:`lane\(tax\)` */ &http.Client{Transport: &http.Transport{MaxConnsPerHost: 5}}

//bhlint:lane tax
func callTaxAPI() { TaxClient.Get("https://tax.example") }

//bhlint:lane card_auth
func callTaxFromCard() {
	TaxClient.Get("https://tax.example") // want `lane card_auth reaches clients.TaxClient, the HTTP client of lane tax, by callTaxFromCard → clients.TaxClient`
}

var baseTransport = &http.Transport{}

// Clone makes a new transport per lane: silent.
//
//bhlint:lane card_auth
var AcquirerClient = &http.Client{Transport: baseTransport.Clone()} // want AcquirerClient:`lane\(card_auth\)`

//bhlint:lane fraud
var ModelClient = &http.Client{Transport: baseTransport.Clone()} // want ModelClient:`lane\(fraud\)`
