package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bhlint/bhlint/internal/suite"
)

// SARIF 2.1.0, the subset code-scanning services read: one rule per
// diagnostic code with its help text, results with their locations, related
// locations and fixes. Paths are relative to %SRCROOT%, the working directory.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	Invocations        []sarifInvocation           `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult               `json:"results"`
}

// sarifInvocation says whether the run checked everything it was asked to
// (executionSuccessful) and carries the summary's notices: packages not
// analysed and analyzer failures as errors, functions skipped over the SSA
// budget as notes. Without it a failed run's log looks like a clean one.
type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications"`
	Properties                 map[string]any      `json:"properties,omitempty"`
}

type sarifNotification struct {
	Descriptor sarifDescriptorRef `json:"descriptor"`
	Level      string             `json:"level"`
	Message    sarifText          `json:"message"`
	Locations  []sarifLocation    `json:"locations,omitempty"`
}

type sarifDescriptorRef struct {
	ID string `json:"id"`
}

// Identities of the notifications: none is a diagnostic code.
const (
	notifyNotAnalysed   = "bhlint/package-not-analysed"
	notifyAnalyzerError = "bhlint/analyzer-error"
	notifySkipped       = "bhlint/function-skipped-over-budget"
)

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifText    `json:"shortDescription"`
	FullDescription  sarifText    `json:"fullDescription"`
	Help             sarifText    `json:"help"`
	HelpURI          string       `json:"helpUri,omitempty"`
	Default          sarifDefault `json:"defaultConfiguration"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
	// PartialFingerprints: findingKey hashed (see fingerprintName), the
	// same across line moves; BaselineState: new, unchanged or absent,
	// with -baseline.
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	BaselineState       string            `json:"baselineState,omitempty"`
}

// fingerprintName versions the fingerprint: a change to findingKey or its
// hash gets a new name, so that code-scanning services do not match old
// fingerprints against new ones.
const fingerprintName = "bhlintFindingKey/v1"

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int  `json:"startLine,omitempty"`
	StartColumn int  `json:"startColumn,omitempty"`
	CharOffset  *int `json:"charOffset,omitempty"`
	CharLength  *int `json:"charLength,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

const srcRoot = "%SRCROOT%"

func writeSARIF(fs []finding, sum *runSummary, w io.Writer) error {
	rules, index := sarifRules()
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "bhlint", Version: toolVersion().String(), InformationURI: "https://github.com/bhlint/bhlint", Rules: rules}},
		Invocations: []sarifInvocation{sarifInvocationOf(sum)},
		Results:     []sarifResult{},
	}
	if wd, err := os.Getwd(); err == nil {
		root := url.URL{Scheme: "file", Path: filepath.ToSlash(wd) + "/"}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: root.String()}}
	}
	for _, f := range append(slices.Clip(fs), sum.held()...) {
		run.Results = append(run.Results, sarifResultOf(f, index))
	}
	if sum.Baseline != nil {
		run.Results = append(run.Results, sarifAbsentResults(sum.Baseline.Stale, index)...)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}

func sarifInvocationOf(sum *runSummary) sarifInvocation {
	inv := sarifInvocation{
		ExecutionSuccessful:        sum.complete(),
		ToolExecutionNotifications: []sarifNotification{},
		Properties:                 map[string]any{"packagesAnalysed": sum.Analysed},
	}
	for _, u := range sum.NotAnalysed {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Descriptor: sarifDescriptorRef{notifyNotAnalysed}, Level: "error",
			Message: sarifText{"package " + u.Package + " was not analysed: " + u.Reason},
		})
	}
	for _, e := range sum.Errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Descriptor: sarifDescriptorRef{notifyAnalyzerError}, Level: "error", Message: sarifText{e},
		})
	}
	for _, sk := range sum.Skipped {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Descriptor: sarifDescriptorRef{notifySkipped}, Level: "note", Message: sarifText{sk.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalOf(sk.Location)}},
		})
	}
	return inv
}

func sarifRules() ([]sarifRule, map[string]int) {
	var rules []sarifRule
	index := map[string]int{}
	for _, e := range suite.All {
		summary, details, _ := strings.Cut(e.Analyzer.Doc, "\n")
		_, summary, _ = strings.Cut(summary, ": ")
		index[e.Code] = len(rules)
		rules = append(rules, sarifRule{
			ID:               e.Code,
			Name:             e.Analyzer.Name,
			ShortDescription: sarifText{summary},
			FullDescription:  sarifText{strings.TrimSpace(details)},
			Help:             sarifText{e.Analyzer.Doc},
			HelpURI:          e.Analyzer.URL,
			Default:          sarifDefault{"error"},
		})
	}
	return rules, index
}

func sarifResultOf(f finding, index map[string]int) sarifResult {
	r := sarifResult{
		RuleID:        f.Code,
		RuleIndex:     index[f.Code],
		Level:         "error",
		Message:       sarifText{f.Code + ": " + f.Message},
		Locations:     []sarifLocation{{PhysicalLocation: sarifPhysicalOf(f.Location)}},
		BaselineState: f.baselineState,
	}
	if f.fingerprint != "" {
		r.PartialFingerprints = map[string]string{fingerprintName: f.fingerprint}
	}
	for i, rel := range f.Related {
		id := i + 1
		r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
			ID: &id, PhysicalLocation: sarifPhysicalOf(rel), Message: &sarifText{rel.Message},
		})
	}
	for _, fx := range f.Fixes {
		r.Fixes = append(r.Fixes, sarifFixOf(fx))
	}
	return r
}

// sarifAbsentResults are the baseline's stale entries: findings recorded in
// the baseline that this run no longer finds, one result each, with the
// fingerprints they had, and no location (the code is gone).
func sarifAbsentResults(stale []baselineEntry, index map[string]int) []sarifResult {
	var out []sarifResult
	for _, e := range stale {
		for ordinal := e.recorded - e.Count; ordinal < e.recorded; ordinal++ {
			out = append(out, sarifResult{
				RuleID: e.Code, RuleIndex: index[e.Code], Level: "note",
				Message:             sarifText{fmt.Sprintf("%s: %s (in %s %s; recorded in the baseline, no longer found)", e.Code, e.Message, e.Package, orPackageLevel(e.Function))},
				Locations:           []sarifLocation{},
				PartialFingerprints: map[string]string{fingerprintName: e.fingerprint(ordinal)},
				BaselineState:       "absent",
			})
		}
	}
	return out
}

func sarifPhysicalOf(l location) sarifPhysical {
	return sarifPhysical{
		ArtifactLocation: sarifArtifactOf(l.File),
		Region:           sarifRegion{StartLine: max(l.Line, 1), StartColumn: max(l.Column, 1)},
	}
}

// sarifArtifactOf names a file relative to %SRCROOT% when it lies below it,
// as code-scanning services require.
func sarifArtifactOf(file string) sarifArtifactLoc {
	if filepath.IsAbs(file) {
		return sarifArtifactLoc{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()}
	}
	return sarifArtifactLoc{URI: (&url.URL{Path: filepath.ToSlash(file)}).String(), URIBaseID: srcRoot}
}

func sarifFixOf(fx fix) sarifFix {
	byFile := map[string]*sarifArtifactChange{}
	var changes []sarifArtifactChange
	order := []string{}
	for _, e := range fx.Edits {
		c, ok := byFile[e.File]
		if !ok {
			c = &sarifArtifactChange{ArtifactLocation: sarifArtifactOf(e.File)}
			byFile[e.File] = c
			order = append(order, e.File)
		}
		offset, length := e.Start, e.End-e.Start
		c.Replacements = append(c.Replacements, sarifReplacement{
			DeletedRegion:   sarifRegion{CharOffset: &offset, CharLength: &length},
			InsertedContent: sarifText{e.New},
		})
	}
	for _, file := range order {
		changes = append(changes, *byFile[file])
	}
	return sarifFix{Description: sarifText{fx.Message}, ArtifactChanges: changes}
}
