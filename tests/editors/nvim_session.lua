-- Headless Neovim (0.7 → 0.11+) with the packaged set-up, require('taxpro').setup() with its defaults: the
-- server is `taxpro lsp`, found on PATH. Runs one scenario of tests/editors/test_sessions.py and writes what it
-- saw as JSON to $CHECK_OUT.
--   CHECK_PKG       editors/nvim               CHECK_SCENARIO  navigate | rename | year | recovery | examples
--   CHECK_DIR       the folder of .tax files   CHECK_OUT       where to write the JSON result
--   CHECK_TIMEOUT   milliseconds to wait for each answer
-- Each scenario says in `out` what it saw; a step that waits in vain records false or nil, never hangs.
local out = { errors = {}, version = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) }
local timeout = tonumber(os.getenv('CHECK_TIMEOUT') or '') or 20000
local dir = os.getenv('CHECK_DIR')

local function finish()
  local f = assert(io.open(os.getenv('CHECK_OUT'), 'w'))
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qall!')
end

local function clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = 'taxpro' })
  end
  local found = {}
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    table.insert(found, client)
  end
  return found
end

local function open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/' .. name))
  local bufnr = vim.api.nvim_get_current_buf()
  local attached = vim.wait(timeout, function()
    return #clients(bufnr) > 0
  end, 50)
  return bufnr, attached
end

-- The 0-based line and column of the first `needle` in a buffer (its `occurrence`th, counting from 1).
local function find(bufnr, needle, occurrence)
  local seen = 0
  for number, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local start = 1
    while true do
      local column = line:find(needle, start, true)
      if not column then
        break
      end
      seen = seen + 1
      if seen == (occurrence or 1) then
        return number - 1, column - 1
      end
      start = column + 1
    end
  end
  error('not in the buffer: ' .. needle)
end

local function request(bufnr, method, params)
  local responses = vim.lsp.buf_request_sync(bufnr, method, params, timeout)
  for _, response in pairs(responses or {}) do
    if response.err then
      table.insert(out.errors, method .. ': ' .. vim.inspect(response.err))
    end
    return response.result
  end
  return nil
end

local function position(bufnr, needle, occurrence)
  local line, character = find(bufnr, needle, occurrence)
  return { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = character } }
end

local function hover_text(result)
  if type(result) ~= 'table' or result.contents == nil then
    return nil
  end
  local contents = result.contents
  if type(contents) == 'string' then
    return contents
  end
  if contents.value then
    return contents.value
  end
  local parts = {}
  for _, part in ipairs(contents) do
    table.insert(parts, type(part) == 'string' and part or part.value)
  end
  return table.concat(parts, '\n')
end

-- Asks for hover at `needle` until `accept` likes the text (the server may still be loading the folder).
local function hover_until(bufnr, needle, accept)
  local text
  vim.wait(timeout, function()
    text = hover_text(request(bufnr, 'textDocument/hover', position(bufnr, needle)))
    return text ~= nil and accept(text)
  end, 200)
  return text
end

local function diagnostics(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(list, { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message })
  end
  return list
end

local function floating_text()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
      return table.concat(lines, '\n')
    end
  end
  return nil
end

local function close_floats()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      vim.api.nvim_win_close(win, true)
    end
  end
end

local scenarios = {}

-- A folder of a.tax (`helper`) and b.tax (calls it), without .git: the folder is the workspace; K, gd and
-- omni-completion work through the buffer's key maps and options.
function scenarios.navigate()
  local b, attached = open('b.tax')
  out.attached = attached
  local client = clients(b)[1]
  if client then
    out.root_dir = client.config.root_dir
    out.workspace_folders = client.workspace_folders or vim.NIL
  end
  out.hover_sibling = hover_until(b, 'helper(x)', function(text)
    return text:find('Doubles', 1, true) ~= nil
  end)
  vim.wait(1000)
  out.b_diagnostics = diagnostics(b)
  out.omnifunc = vim.bo[b].omnifunc
  out.maps = { K = vim.fn.maparg('K', 'n') ~= '', gd = vim.fn.maparg('gd', 'n') ~= '' }

  -- K: a floating window with the documentation.
  local line, column = find(b, 'helper(x)')
  vim.api.nvim_win_set_cursor(0, { line + 1, column + 2 })
  vim.cmd('normal K')
  vim.wait(timeout, function()
    return floating_text() ~= nil
  end, 50)
  out.k_float = floating_text()
  close_floats()

  -- gd: to the definition in the other file.
  vim.api.nvim_win_set_cursor(0, { line + 1, column + 2 })
  vim.cmd('normal gd')
  vim.wait(timeout, function()
    return vim.api.nvim_buf_get_name(0):sub(-5) == 'a.tax'
  end, 50)
  out.gd_file = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ':t')
  out.gd_line = vim.api.nvim_win_get_cursor(0)[1] - 1

  -- Omni-completion (CTRL-X CTRL-O) in insert mode; the answer comes while Neovim waits in insert mode, so a
  -- timer looks for it and finishes the session.
  vim.cmd('buffer ' .. b)
  local started = vim.loop.now()
  local timer = vim.loop.new_timer()
  timer:start(100, 100, vim.schedule_wrap(function()
    local items = vim.fn.complete_info({ 'items' }).items or {}
    if #items > 0 or vim.loop.now() - started > timeout then
      timer:stop()
      out.omni_words = {}
      for _, item in ipairs(items) do
        table.insert(out.omni_words, item.word)
      end
      finish()
    end
  end))
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('Golet z = hel<C-x><C-o>', true, false, true), 'x!', false)
  return 'finishes later'
end

-- Renaming `helper` in a.tax (an edit, not yet saved) must show in b.tax's diagnostics.
function scenarios.rename()
  local a, attached_a = open('a.tax')
  local b, attached_b = open('b.tax')
  out.attached = attached_a and attached_b
  out.hover_sibling = hover_until(b, 'helper(x)', function(text)
    return text:find('Doubles', 1, true) ~= nil
  end)
  vim.wait(1000)
  out.b_before = diagnostics(b)
  local line, column = find(a, 'helper')
  vim.api.nvim_buf_set_text(a, line, column, line, column + #'helper', { 'helper_two' })
  vim.wait(timeout, function()
    return #diagnostics(b) > 0
  end, 50)
  out.b_after = diagnostics(b)
end

-- :TaxproYear 2025, then :TaxproYear with no argument: back to the latest year.
function scenarios.year()
  local c, attached = open('year.tax')
  out.attached = attached
  local function value()
    return hover_text(request(c, 'textDocument/hover', position(c, 'basic_personal_amount')))
  end
  out.latest = hover_until(c, 'basic_personal_amount', function(text)
    return text:find('$', 1, true) ~= nil
  end)
  vim.cmd('TaxproYear 2025')
  out.option_2025 = require('taxpro').options.year
  vim.wait(timeout, function()
    out.after_2025 = value()
    return out.after_2025 ~= out.latest
  end, 200)
  vim.cmd('TaxproYear')
  out.option_reset = require('taxpro').options.year or vim.NIL
  vim.wait(timeout, function()
    out.after_reset = value()
    return out.after_reset ~= out.after_2025
  end, 200)
end

-- A file with a stray incomplete line before a test and an unclosed `{` before a formula: outline, hover and
-- inlay hints still answer for what follows each mistake.
function scenarios.recovery()
  local r, attached = open('recovery.tax')
  out.attached = attached
  vim.wait(timeout, function()
    return #diagnostics(r) > 0
  end, 50)
  out.diagnostics = diagnostics(r)
  local symbols = request(r, 'textDocument/documentSymbol', { textDocument = { uri = vim.uri_from_bufnr(r) } })
  out.symbols = {}
  for _, symbol in ipairs(symbols or {}) do
    table.insert(out.symbols, symbol.name)
  end
  out.hover = {}
  for _, needle in ipairs({ 'double($2)', 'triple($1)' }) do
    out.hover[needle] = hover_text(request(r, 'textDocument/hover', position(r, needle))) or vim.NIL
  end
  local last = vim.api.nvim_buf_line_count(r)
  local hints = request(r, 'textDocument/inlayHint', {
    textDocument = { uri = vim.uri_from_bufnr(r) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
  })
  out.hint_lines = {}
  for _, hint in ipairs(hints or {}) do
    table.insert(out.hint_lines, hint.position.line)
  end
end

-- Every example (CHECK_FILES, separated by ':'), then a sentinel file with one known error: once the sentinel's
-- error has arrived, the server has analysed the folder, and the examples' diagnostics are what the user sees.
function scenarios.examples()
  out.examples = {}
  local buffers = {}
  for name in string.gmatch(os.getenv('CHECK_FILES') or '', '[^:]+') do
    local bufnr, attached = open(name)
    buffers[name] = bufnr
    if not attached then
      table.insert(out.errors, 'no server attached to ' .. name)
    end
  end
  local sentinel = open('zz_sentinel.tax')
  out.sentinel = vim.wait(timeout, function()
    return #diagnostics(sentinel) > 0
  end, 50)
  vim.wait(1000)
  for name, bufnr in pairs(buffers) do
    out.examples[name] = diagnostics(bufnr)
  end
end

local ok, err = pcall(function()
  vim.opt.runtimepath:prepend(os.getenv('CHECK_PKG'))
  vim.cmd('filetype plugin indent on')
  vim.cmd('syntax on')
  require('taxpro').setup()
  return scenarios[os.getenv('CHECK_SCENARIO')]()
end)
if not ok then
  table.insert(out.errors, tostring(err))
  finish()
elseif err ~= 'finishes later' then
  finish()
end
