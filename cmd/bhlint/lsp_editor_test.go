package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// nvimScript drives Neovim's own LSP client (vim.lsp, 0.7 and later) with
// bhlint lsp: open the file, wait for the diagnostic, ask for code actions
// on its range, apply the Retry-After fix, write the file, wait for the
// diagnostic to go. It records what it saw as JSON in RESULT_FILE.
const nvimScript = `
local bin, file, out = os.getenv('BHLINT_BIN'), os.getenv('SHED_FILE'), os.getenv('RESULT_FILE')
local result = { progress = {}, logs = {} }
local ok, err = pcall(function()
  local id = vim.lsp.start_client({
    name = 'bhlint',
    cmd = { bin, 'lsp' },
    root_dir = vim.fn.fnamemodify(file, ':h'),
    handlers = {
      ['$/progress'] = function(e, res, ctx, cfg)
        table.insert(result.progress, res.value.kind)
        return vim.lsp.handlers['$/progress'](e, res, ctx, cfg)
      end,
      ['window/logMessage'] = function(_, res) table.insert(result.logs, res.message) end,
    },
  })
  vim.cmd('edit ' .. file)
  vim.lsp.buf_attach_client(0, id)
  if not vim.wait(600000, function() return #vim.diagnostic.get(0) > 0 end, 50) then
    error('no diagnostics')
  end
  local d = vim.diagnostic.get(0)[1]
  result.diagnostic = { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, source = d.source }
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(0) },
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = {} },
  }
  local fix
  result.actions = {}
  for _, r in pairs(vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 60000) or {}) do
    for _, a in ipairs(r.result or {}) do
      table.insert(result.actions, a.title)
      if a.title:find('Retry%-After') then fix = a end
    end
  end
  if not fix then error('no Retry-After code action') end
  vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
  vim.cmd('silent write')
  if not vim.wait(600000, function() return #vim.diagnostic.get(0) == 0 end, 50) then
    error('the finding stayed after the fix was applied and written')
  end
  result.lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
end)
result.error = not ok and tostring(err) or nil
local f = io.open(out, 'w')
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd('qa!')
`

// testNeovim: a real editor's LSP client (Neovim, headless) gets the
// diagnostic with its range, progress and log lines, and the quick fix,
// which it applies; on write the finding goes. Skipped when nvim is not
// installed (Debian: apt-get install neovim).
func testNeovim(t *testing.T, bin string) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim; scripts/setup.sh does): the real-editor check is skipped")
	}
	_, file := shedModule(t)
	tmp := t.TempDir()
	script, result := filepath.Join(tmp, "bhlint.lua"), filepath.Join(tmp, "result.json")
	if err := os.WriteFile(script, []byte(nvimScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "BHLINT_BIN="+bin, "SHED_FILE="+file, "RESULT_FILE="+result, "XDG_STATE_HOME="+tmp) // not XDG_CACHE_HOME: the go command keeps its build cache there
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v", err)
	}
	var got struct {
		Error      string
		Diagnostic struct {
			Lnum, Col int
			EndLnum   int `json:"end_lnum"`
			EndCol    int `json:"end_col"`
			Source    string
		}
		Actions, Logs, Progress, Lines []string
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("result %s: %v", data, err)
	}
	if got.Error != "" {
		t.Fatalf("in nvim: %s\nrecorded: %s", got.Error, data)
	}
	// shed.go line 7 (0-based 6, after the nonce line): the WriteHeader call.
	if d := got.Diagnostic; d.Source != "bhlint/retryafter" || d.Lnum != 6 || d.Col != 1 || d.EndLnum != 6 || d.EndCol != 1+len("w.WriteHeader(http.StatusServiceUnavailable)") {
		t.Errorf("diagnostic in nvim = %+v, want bhlint/retryafter covering the WriteHeader call on line 6", d)
	}
	if len(got.Actions) != 2 || !strings.HasPrefix(got.Actions[1], "Suppress ERR_MISSING_RETRY_AFTER") {
		t.Errorf("code actions in nvim = %q, want the fix and the suppression", got.Actions)
	}
	if !slices.Contains(got.Lines, "\tw.Header().Set(\"Retry-After\", \"5\")") {
		t.Errorf("file after the fix:\n%s", strings.Join(got.Lines, "\n"))
	}
	if !slices.Contains(got.Progress, "begin") || !slices.Contains(got.Progress, "end") || !slices.Contains(got.Logs, "bhlint: loading example.com/shed") {
		t.Errorf("progress %q, logs %q: want begin and end, and the package loaded", got.Progress, got.Logs)
	}
}
