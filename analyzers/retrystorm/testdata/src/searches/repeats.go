package searches

import (
	"io/fs"
	"net/http"
)

// leavesWhenErrorRepeats: it reads on past an entry that fails, and leaves
// as soon as the same failure comes back twice (stuck): a failure that
// persists is read twice, not for ever.
func leavesWhenErrorRepeats(dir fs.ReadDirFile) []fs.DirEntry {
	var all []fs.DirEntry
	prev := ""
	for {
		entries, err := dir.ReadDir(-1)
		all = append(all, entries...)
		if err == nil {
			break
		}
		if prev == err.Error() {
			break
		}
		prev = err.Error()
	}
	return all
}

// fetch calls the network.
func fetch(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// networkRetryLeavesOnRepeat is still a storm: it gives up when the same
// error comes twice, but a server that fails differently each time is
// called again at once, with no pause.
func networkRetryLeavesOnRepeat(url string) {
	prev := ""
	for { // want `this loop retries searches.fetch \(a network call: → http.Get\) when it fails with no pause between attempts`
		err := fetch(url)
		if err == nil {
			return
		}
		if prev == err.Error() {
			return
		}
		prev = err.Error()
	}
}

// localRetryNeverGivesUp: the same local read, tried for ever; nothing
// compares one failure with the last.
func localRetryNeverGivesUp(dir fs.ReadDirFile) []fs.DirEntry {
	for { // want `this loop retries \(fs.ReadDirFile\).ReadDir when it fails with no bound on attempts, with no pause between attempts`
		entries, err := dir.ReadDir(-1)
		if err == nil {
			return entries
		}
	}
}
