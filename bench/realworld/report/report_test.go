package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	uq = "ERR_UNBOUNDED_QUEUE_DETECTED"
	hc = "ERR_CONN_HELD_ACROSS_NETWORK_CALL"
)

// corpus writes one service "svc" with the given triage and recall files and a bhlint result
// with the given findings (file:line:code, optionally @file:line of a related position), and returns the services and results directories.
func corpus(t *testing.T, triage, recall string, findings ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	svc := filepath.Join(dir, "services", "svc")
	res := filepath.Join(dir, "results", "svc")
	write(t, filepath.Join(svc, "service.txt"), "module=example.com/svc\nversion=v1.0.0\nsum=h1:x\npackages=./...\nstyle=net/http\n")
	write(t, filepath.Join(svc, "triage.tsv"), triage)
	write(t, filepath.Join(svc, "recall.tsv"), recall)
	write(t, filepath.Join(res, "root.txt"), "/work/svc\n")
	var js []string
	for _, f := range findings {
		f, rel, hasRel := strings.Cut(f, "@")
		parts := strings.Split(f, ":")
		related := ""
		if hasRel {
			r := strings.Split(rel, ":")
			related = `,"related":[{"file":"/work/svc/` + r[0] + `","line":` + r[1] + `,"column":1,"message":"m"}]`
		}
		js = append(js, `{"analyzer":"a","code":"`+parts[2]+`","message":"m","location":{"file":"/work/svc/`+parts[0]+`","line":`+parts[1]+`,"column":1}`+related+`}`)
	}
	write(t, filepath.Join(res, "bhlint.json"), `{"findings":[`+strings.Join(js, ",")+`],"summary":{"packages_analysed":3,"packages_not_analysed":[],"functions_skipped":[],"analyzer_errors":[]}}`)
	write(t, filepath.Join(res, "bhlint.rc"), "1\n")
	write(t, filepath.Join(res, "bhlint.err"), "")
	write(t, filepath.Join(res, "vet.time"), "2.00 3.00 100\n")
	write(t, filepath.Join(res, "bhlint.time"), "1.00 2.00 160\n")
	return filepath.Join(dir, "services"), filepath.Join(dir, "results")
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runReport(t *testing.T, services, results string) (int, string, string) {
	t.Helper()
	md := filepath.Join(t.TempDir(), "out.md")
	var out bytes.Buffer
	code, err := run(services, results, md, prose{"header", "## Notes\nhand-written"}, 5, nil, &out)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	data, _ := os.ReadFile(md)
	return code, out.String(), string(data)
}

func TestTriageMatchesAndFigures(t *testing.T) {
	triage := "a.go:10\t" + uq + "\ttrue\treal\nb.go:20\t" + uq + "\tfalse\ttest fixture\nc.go:5\t" + uq + "\tdebatable\tmodel-bound\n"
	recall := "a.go:12\t" + uq + "\tnear the finding\nd.go:1\t" + hc + "\tmissed\n"
	services, results := corpus(t, triage, recall, "a.go:10:"+uq, "c.go:5:"+uq, "e.go:7:"+uq)
	code, out, md := runReport(t, services, results)
	if code != 0 {
		t.Errorf("exit %d, want 0 (nothing regressed); output:\n%s", code, out)
	}
	if !strings.Contains(out, "untriaged: e.go:7\t"+uq) {
		t.Errorf("the finding the triage does not know is not printed as untriaged:\n%s", out)
	}
	// 3 findings: 1 true, 0 false (b.go did not come back), 1 debatable, 1 untriaged; recall 1/2.
	if !strings.Contains(md, "| svc | example.com/svc@v1.0.0 | net/http | 3 | yes | 3 | 1 | 0 | 1 | 1 | 100% (1/1) | 50% (1/2) |") {
		t.Errorf("service row wrong:\n%s", md)
	}
	if !strings.Contains(md, "| svc | 2.00 | 1.00 | 0.00 | 0.50× | – | 0.67× | 100 | 160 | 1.60× | met | **missed** |") {
		t.Errorf("speed row wrong:\n%s", md)
	}
	if !strings.HasSuffix(md, "## Notes\nhand-written\n") {
		t.Errorf("the notes are not at the end:\n%s", md)
	}
	if !strings.Contains(md, "d.go:1") {
		t.Errorf("the missed recall instance is not listed:\n%s", md)
	}
}

// TestPairedRounds: each round pairs go vet's run with bhlint's right after it; the column gives
// the median of the pairs' ratios and their range, which the best-of figures (here equal walls,
// 1.00×) do not show. A round bhlint has no timing for pairs with nothing.
func TestPairedRounds(t *testing.T) {
	services, results := corpus(t, "", "")
	res := filepath.Join(results, "svc")
	write(t, filepath.Join(res, "vet.rounds"), "2.00 3.00 100\n3.00 4.00 100\n2.50 3.50 100\n2.00 3.00 100\n")
	write(t, filepath.Join(res, "bhlint.rounds"), "2.20 3.00 150\n2.70 3.50 150\n2.00 3.00 150\n")
	_, _, md := runReport(t, services, results)
	if !strings.Contains(md, "| 0.50× | 0.90 (0.80–1.10, 3 rounds) | 0.67× |") {
		t.Errorf("paired column wrong (want the median 0.90 of 1.10, 0.90, 0.80):\n%s", md)
	}
	write(t, filepath.Join(res, "bhlint.rounds"), "2.20 3.00 150\n2.70 3.50 150\n")
	_, _, md = runReport(t, services, results)
	if !strings.Contains(md, "| 0.50× | 1.00 (0.90–1.10, 2 rounds) | 0.67× |") {
		t.Errorf("paired column wrong for an even count (want the mean of the middle two):\n%s", md)
	}
}

// TestRecallAtRelatedPosition: a finding reported elsewhere (sharedpool at the pool's creation)
// finds a recall instance through a related position near it (the background loop), and a
// related position in another file or further away does not.
func TestRecallAtRelatedPosition(t *testing.T) {
	const sp = "ERR_SHARED_FAILURE_DOMAIN_DETECTED"
	triage := "main.go:20\t" + sp + "\ttrue\tshared\nmain.go:40\t" + sp + "\ttrue\tshared\n"
	recall := "worker/pool.go:51\t" + sp + "\tloop\nrunner.go:32\t" + sp + "\tother loop\n"
	services, results := corpus(t, triage, recall, "main.go:20:"+sp+"@worker/pool.go:48", "main.go:40:"+sp+"@runner.go:20")
	_, _, md := runReport(t, services, results)
	if !strings.Contains(md, "50% (1/2)") {
		t.Errorf("want recall 1/2 (pool.go:51 through a related position, runner.go:32 too far):\n%s", md)
	}
}

// TestPathsBelowRoot: bhlint ran in a module below the work copy's root
// (service.txt's subdir=) and printed paths relative to it; the labels and
// the triage name files from the root (api/routes/auth.go).
func TestPathsBelowRoot(t *testing.T) {
	const ra = "ERR_MISSING_RETRY_AFTER"
	triage := "api/routes/auth.go:174\t" + ra + "\ttrue\tno header\n"
	recall := "api/routes/auth.go:174\t" + ra + "\t429 with no Retry-After\n"
	services, results := corpus(t, triage, recall)
	res := filepath.Join(results, "svc")
	write(t, filepath.Join(res, "cwd.txt"), "/work/svc/api\n")
	write(t, filepath.Join(res, "bhlint.json"), `{"findings":[{"analyzer":"a","code":"`+ra+`","message":"m","location":{"file":"routes/auth.go","line":174,"column":1}}],"summary":{"packages_analysed":3,"packages_not_analysed":[],"functions_skipped":[],"analyzer_errors":[]}}`)
	code, out, md := runReport(t, services, results)
	if code != 0 || strings.Contains(out, "untriaged:") || !strings.Contains(md, "100% (1/1)") {
		t.Errorf("want the finding at api/routes/auth.go:174, triaged and recalled (exit %d):\n%s\n%s", code, out, md)
	}
}

func TestRegressionsFail(t *testing.T) {
	triage := "a.go:10\t" + uq + "\ttrue\treal\nb.go:20\t" + uq + "\tfixed\ttest fixture, fixed\nc.go:3\t" + uq + "\tfalse\tknown\n"
	services, results := corpus(t, triage, "", "b.go:20:"+uq, "c.go:3:"+uq)
	code, out, _ := runReport(t, services, results)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"triaged-true finding disappeared: a.go:10", "a fixed false positive came back: b.go:20"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestKnownFalsePositivesPass(t *testing.T) {
	triage := "a.go:10\t" + uq + "\tfalse\tknown\nb.go:20\t" + uq + "\tfalse\tknown, now gone\n"
	services, results := corpus(t, triage, "", "a.go:10:"+uq)
	code, out, _ := runReport(t, services, results)
	if code != 0 {
		t.Errorf("exit %d, want 0: a known false positive is no regression; output:\n%s", code, out)
	}
	if !strings.Contains(out, "gone: the false positive b.go:20\t"+uq+" is no longer reported; set its verdict to fixed") {
		t.Errorf("a false positive that went is not pointed out:\n%s", out)
	}
}

func TestIncompleteLoadFails(t *testing.T) {
	services, results := corpus(t, "", "")
	write(t, filepath.Join(results, "svc", "bhlint.json"), `{"findings":[],"summary":{"packages_analysed":2,"packages_not_analysed":[{"package":"example.com/svc/x","reason":"type errors"}],"analyzer_errors":[]}}`)
	code, out, md := runReport(t, services, results)
	if code != 1 || !strings.Contains(out, "not analysed: example.com/svc/x: type errors") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	if !strings.Contains(md, "**no**: example.com/svc/x: type errors") {
		t.Errorf("report does not say the service did not load:\n%s", md)
	}
}

func TestCrashFails(t *testing.T) {
	services, results := corpus(t, "", "")
	write(t, filepath.Join(results, "svc", "bhlint.err"), "panic: runtime error: index out of range\n")
	if code, out, _ := runReport(t, services, results); code != 1 || !strings.Contains(out, "crash: panic:") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

func TestBadCorpusFiles(t *testing.T) {
	for name, triage := range map[string]string{
		"fields":  "a.go:1\t" + uq + "\ttrue\n",
		"verdict": "a.go:1\t" + uq + "\tmaybe\tr\n",
		"code":    "a.go:1\tERR_NOPE\ttrue\tr\n",
		"line":    "a.go\t" + uq + "\ttrue\tr\n",
		"reason":  "a.go:1\t" + uq + "\ttrue\t \n",
		"twice":   "a.go:1\t" + uq + "\ttrue\tr\na.go:1\t" + uq + "\tfalse\tr\n",
	} {
		t.Run(name, func(t *testing.T) {
			services, results := corpus(t, triage, "")
			_, err := run(services, results, "", prose{}, 5, nil, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), "triage.tsv:") {
				t.Errorf("err = %v, want one naming triage.tsv and the line", err)
			}
		})
	}
}

func TestMissingMeta(t *testing.T) {
	services, results := corpus(t, "", "")
	write(t, filepath.Join(services, "svc", "service.txt"), "module=example.com/svc\n")
	_, err := run(services, results, "", prose{}, 5, nil, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), `"version" is missing`) {
		t.Errorf("err = %v", err)
	}
}

// TestLabelsDecideUntriagedFindings: a finding no triage line knows is true when it reports a
// labelled instance and false when it reports a labelled look-alike; the service row counts the
// look-alikes flagged.
func TestLabelsDecideUntriagedFindings(t *testing.T) {
	services, results := corpus(t, "", "a.go:10\t"+uq+"\treal\n", "a.go:11:"+uq, "b.go:20:"+uq, "c.go:1:"+uq)
	write(t, filepath.Join(services, "svc", "lookalikes.tsv"), "b.go:22\t"+uq+"\tbounded by a semaphore\nd.go:5\t"+uq+"\tfixed workers\n")
	_, out, md := runReport(t, services, results)
	// 3 findings: a.go true (label), b.go false (look-alike), c.go untriaged; look-alikes 1/2.
	if !strings.Contains(md, "| 3 | yes | 3 | 1 | 1 | 0 | 1 | 50% (1/2) | 100% (1/1) | 50% (1/2) |") {
		t.Errorf("service row wrong:\n%s", md)
	}
	if strings.Contains(out, "untriaged: a.go") || strings.Contains(out, "untriaged: b.go") || !strings.Contains(out, "untriaged: c.go:1") {
		t.Errorf("only the finding no label decides is untriaged:\n%s", out)
	}
}

// TestFirstContactRecordedOnce: the first run is recorded with the labels as they stood, is
// refused a second time, and is scored from that record: a label corrected later changes the
// current recall, not the first contact's; a triage line decides a finding no label does.
func TestFirstContactRecordedOnce(t *testing.T) {
	services, results := corpus(t, "", "a.go:10\t"+uq+"\treal\nz.go:1\t"+hc+"\tmissed\n", "a.go:10:"+uq, "b.go:20:"+uq, "c.go:1:"+uq)
	write(t, filepath.Join(services, "svc", "lookalikes.tsv"), "b.go:20\t"+uq+"\tbounded\n")
	now := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	if err := recordFirstContact(services, results, "svc", "0123456789abcdef", "abc1234", now); err != nil {
		t.Fatal(err)
	}
	if err := recordFirstContact(services, results, "svc", "0123456789abcdef", "abc1234", now); err == nil || !strings.Contains(err.Error(), "recorded already") {
		t.Errorf("a second record: err = %v, want a refusal", err)
	}
	// After the first contact: the missed label is corrected, c.go is triaged true.
	write(t, filepath.Join(services, "svc", "recall.tsv"), "a.go:10\t"+uq+"\treal\nc.go:1\t"+uq+"\tnow labelled\n")
	write(t, filepath.Join(services, "svc", "triage.tsv"), "c.go:1\t"+uq+"\ttrue\treal, missed by the labels\n")
	_, _, md := runReport(t, services, results)
	want := "| svc | 0123456 | abc1234 | 2026-12-02 03:00 UTC | yes | 3 | 2 | 1 | 0 | 0 | 67% (2/3) | 50% (1/2) | 100% (1/1) |"
	if !strings.Contains(md, "## First contact") || !strings.Contains(md, want) {
		t.Errorf("first-contact row wrong, want\n%s\nin:\n%s", want, md)
	}
	if !strings.Contains(md, "| heldconn | 0 | 0 | 0 | 0 | 0 | – | 0% (0/1) | – |") {
		t.Errorf("first-contact analyzer table lacks heldconn's missed label:\n%s", md)
	}
	// The current figures use the corrected labels: recall 2/2.
	if !strings.Contains(md, "| 67% (2/3) | 100% (2/2) | 100% (1/1) |") {
		t.Errorf("current service row wrong:\n%s", md)
	}
}

// TestFirstContactTableNeedsNoResults: the first-contact section alone is
// written from the records, labels and triage, for every service that has a
// record, whether or not a run left results for it; a service with no
// record is not in it.
func TestFirstContactTableNeedsNoResults(t *testing.T) {
	services, results := corpus(t, "b.go:20\t"+uq+"\tfalse\tbounded\n", "a.go:10\t"+uq+"\treal\n", "a.go:10:"+uq, "b.go:20:"+uq)
	now := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	if err := recordFirstContact(services, results, "svc", "0123456789abcdef", "abc1234", now); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(services, "norecord", "service.txt"), "module=example.com/other\nversion=v1.0.0\nsum=h1:x\npackages=./...\nstyle=net/http\n")
	out := filepath.Join(t.TempDir(), "fc.md")
	if err := writeFirstContactTable(services, out, 5); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	want := "| svc | 0123456 | abc1234 | 2026-12-02 03:00 UTC | yes | 2 | 1 | 1 | 0 | 0 | 50% (1/2) | 100% (1/1) | – |"
	if !strings.Contains(md, want) || strings.Contains(md, "norecord") || !strings.Contains(md, "| **all** |") {
		t.Errorf("first-contact table wrong, want\n%s\nand no row for norecord, in:\n%s", want, md)
	}
	if err := writeFirstContactTable(filepath.Join(services, "norecord"), out, 5); err == nil {
		t.Error("a corpus with no record: want an error")
	}
}

// TestLabelsOfPlannedChecks: labels of checks not built yet are read, kept aside, and not scored;
// an unknown code is still an error.
func TestLabelsOfPlannedChecks(t *testing.T) {
	const planned = "ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN"
	plannedCodes[planned] = true
	t.Cleanup(func() { delete(plannedCodes, planned) })
	services, results := corpus(t, "", "h.go:3\t"+planned+"\tping reaches the pool\n")
	s, err := loadService(filepath.Join(services, "svc"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Recall) != 0 || len(s.Pending) != 1 || s.Pending[0].Line != 3 {
		t.Errorf("recall %v, pending %v: want the label pending", s.Recall, s.Pending)
	}
	if _, _, md := runReport(t, services, results); !strings.Contains(md, "| 0 | 0 | 0 | 0 | 0 | – | – | – |") {
		t.Errorf("a pending label was scored:\n%s", md)
	}
	write(t, filepath.Join(services, "svc", "lookalikes.tsv"), "h.go:3\tERR_NOPE\tx\n")
	if _, err := loadService(filepath.Join(services, "svc")); err == nil || !strings.Contains(err.Error(), "lookalikes.tsv:1") {
		t.Errorf("err = %v, want one naming lookalikes.tsv and the line", err)
	}
}

// TestMovedFindingKeepsFirstContactDecided: a true finding that an analyzer
// change moved is triaged moved at its old line and true at its new one:
// the first contact, which holds the old line, counts it true, and the
// current run does not report it as a true finding that disappeared.
func TestMovedFindingKeepsFirstContactDecided(t *testing.T) {
	services, results := corpus(t, "", "", "main.go:1:"+uq)
	now := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	write(t, filepath.Join(services, "svc", "lookalikes.tsv"), "z.go:1\t"+uq+"\tfine\n")
	if err := recordFirstContact(services, results, "svc", "c0ffee0", "abc1234", now); err != nil {
		t.Fatal(err)
	}
	corpusMoved, resultsMoved := corpus(t, "main.go:1\t"+uq+"\tmoved\tnow at main.go:40\nmain.go:40\t"+uq+"\ttrue\treal\n", "", "main.go:40:"+uq)
	data, err := os.ReadFile(filepath.Join(services, "svc", firstContactFile))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(corpusMoved, "svc", firstContactFile), string(data))
	code, out, md := runReport(t, corpusMoved, resultsMoved)
	if code != 0 || strings.Contains(out, "disappeared") {
		t.Errorf("exit %d: a moved finding is no regression:\n%s", code, out)
	}
	if !strings.Contains(md, "| yes | 1 | 1 | 0 | 0 | 0 | 100% (1/1) |") {
		t.Errorf("the first contact does not count the moved finding true:\n%s", md)
	}
}

// floorRun writes a go vet -vettool run's results as run.sh leaves them.
func floorRun(t *testing.T, res, run, best, rounds, rc, out string) {
	t.Helper()
	write(t, filepath.Join(res, run+".time"), best)
	write(t, filepath.Join(res, run+".rounds"), rounds)
	write(t, filepath.Join(res, run+".rc"), rc)
	write(t, filepath.Join(res, run+".out"), out)
}

// floorCorpus is a service whose results have the four floor runs: bhlint at 1.20× the floor's
// CPU with disablethp=1 (target met), at 1.50× as run (no target on that row).
func floorCorpus(t *testing.T) (services, results, res string) {
	services, results = corpus(t, "", "")
	res = filepath.Join(results, "svc")
	floorRun(t, res, "floor-disablethp", "3.00 10.00 200\n", "3.00 10.00 200\n4.00 12.00 210\n", "0\n", "")
	floorRun(t, res, "bhlint-vettool-disablethp", "3.50 12.00 300\n", "3.50 12.00 300\n4.50 16.80 310\n", "1\n", "a.go:1:1: heldconn: finding\n")
	floorRun(t, res, "floor", "2.50 8.00 190\n", "2.50 8.00 190\n", "0\n", "")
	floorRun(t, res, "bhlint-vettool", "3.00 12.00 280\n", "3.00 12.00 280\n", "1\n", "")
	return services, results, res
}

// TestFloorTable: the floor table has the disablethp=1 row first with the target, then the as-run
// row without it; the by-round column pairs each bhlint round with the floor's (12/10 and
// 16.8/12: median 1.30, not the best-of ratio 1.20).
func TestFloorTable(t *testing.T) {
	services, results, _ := floorCorpus(t)
	code, out, md := runReport(t, services, results)
	if code != 0 || strings.Contains(out, "timing") {
		t.Errorf("exit %d, want 0 and no timing warning (bhlint's exit 1 is its findings):\n%s", code, out)
	}
	target := "| svc | disablethp=1 | 3.00 | 3.50 | 10.00 | 12.00 | 1.20× | 1.30 (1.20–1.40, 2 rounds) | met | 200 | 300 | yes |"
	asRun := "| svc | as run | 2.50 | 3.00 | 8.00 | 12.00 | 1.50× | 1.50 (1 round) | – | 190 | 280 | yes |"
	i, j := strings.Index(md, target), strings.Index(md, asRun)
	if !strings.Contains(md, "## Speed against the type-checking floor") || i < 0 || j < i {
		t.Errorf("want the floor section with\n%s\nthen\n%s\nin:\n%s", target, asRun, md)
	}
	if i >= 0 && strings.Index(md, "## Speed (cold)") > i {
		t.Errorf("the floor table comes before the speed table against go vet:\n%s", md)
	}
}

// TestFloorTargetMissed: above 1.3× with disablethp=1 is missed; 1.3× as the table prints it is
// met.
func TestFloorTargetMissed(t *testing.T) {
	services, results, res := floorCorpus(t)
	floorRun(t, res, "bhlint-vettool-disablethp", "3.50 13.10 300\n", "3.50 13.10 300\n", "1\n", "")
	if _, _, md := runReport(t, services, results); !strings.Contains(md, "| 1.31× | 1.31 (1 round) | **missed** |") {
		t.Errorf("1.31× is not reported missed:\n%s", md)
	}
	for _, cpu := range []string{"13.00", "13.04"} { // 1.304× prints 1.30×
		floorRun(t, res, "bhlint-vettool-disablethp", "3.50 "+cpu+" 300\n", "3.50 "+cpu+" 300\n", "1\n", "")
		if _, _, md := runReport(t, services, results); !strings.Contains(md, "| 1.30× | 1.30 (1 round) | met |") {
			t.Errorf("CPU %s (1.30×) is not reported met:\n%s", cpu, md)
		}
	}
}

// TestFloorRunsThatFailed: a floor that exited non-zero did not check every unit and a bhlint
// vet tool that crashed did not finish: their rows say so, the review warns, and neither is a
// regression of bhlint's findings (exit 0).
func TestFloorRunsThatFailed(t *testing.T) {
	services, results, res := floorCorpus(t)
	write(t, filepath.Join(res, "floor.rc"), "1\n")
	write(t, filepath.Join(res, "floor.out"), "# example.com/svc/x\nvet: x.go:3:2: undefined: y\n")
	write(t, filepath.Join(res, "bhlint-vettool-disablethp.out"), "a.go:1:1: heldconn: finding\npanic: runtime error: nil map\n")
	code, out, md := runReport(t, services, results)
	if code != 0 {
		t.Errorf("exit %d, want 0: a timing run's failure is not a regression of the findings:\n%s", code, out)
	}
	for _, want := range []string{
		"| 190 | 280 | **no**: floor exited 1: # example.com/svc/x |",
		"| 200 | 300 | **no**: bhlint-vettool-disablethp crashed: panic: runtime error: nil map |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("want %q in:\n%s", want, md)
		}
	}
	if !strings.Contains(out, "timing not comparable: floor exited 1") || !strings.Contains(out, "timing not comparable: bhlint-vettool-disablethp crashed") {
		t.Errorf("the review does not warn of the failed timing runs:\n%s", out)
	}
	write(t, filepath.Join(res, "floor-disablethp.rc"), "")
	if _, _, md := runReport(t, services, results); !strings.Contains(md, "**no**: floor-disablethp: no exit status; bhlint-vettool-disablethp crashed") {
		t.Errorf("a run without an exit status is not marked:\n%s", md)
	}
}

// TestNoFloorFigures: results from before the floor was measured (or one setting's runs only)
// leave the missing rows, and with no rows the section, out of the report.
func TestNoFloorFigures(t *testing.T) {
	services, results := corpus(t, "", "")
	if _, _, md := runReport(t, services, results); strings.Contains(md, "type-checking floor") {
		t.Errorf("a floor section without figures:\n%s", md)
	}
	res := filepath.Join(results, "svc")
	floorRun(t, res, "floor", "2.50 8.00 190\n", "2.50 8.00 190\n", "0\n", "")
	floorRun(t, res, "bhlint-vettool", "3.00 12.00 280\n", "3.00 12.00 280\n", "1\n", "")
	_, _, md := runReport(t, services, results)
	if !strings.Contains(md, "| svc | as run |") || strings.Contains(md, "| svc | disablethp=1 |") {
		t.Errorf("want the as-run row only:\n%s", md)
	}
}
