-- Headless Neovim: open a .tax file with a mistake through the packaged set-up
-- (editors/nvim, require('taxpro').setup), wait for the server's diagnostic, then ask for
-- completion after `ON.`. Writes what it saw as JSON to $CHECK_OUT.
--   CHECK_PKG     editors/nvim            CHECK_SERVER  the taxpro executable
--   CHECK_FILE    the .tax file to open   CHECK_OUT     where to write the JSON result
--   CHECK_TIMEOUT milliseconds to wait for each answer (default 20000)
local out = { errors = {} }
local timeout = tonumber(os.getenv('CHECK_TIMEOUT') or '') or 20000

local function finish()
  local f = assert(io.open(os.getenv('CHECK_OUT'), 'w'))
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  vim.opt.runtimepath:prepend(os.getenv('CHECK_PKG'))
  vim.cmd('filetype plugin indent on')
  vim.cmd('syntax on')
  require('taxpro').setup({ server_path = os.getenv('CHECK_SERVER') })
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('CHECK_FILE')))
  local bufnr = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[bufnr].filetype

  out.attached = vim.wait(timeout, function()
    local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
      or vim.lsp.buf_get_clients(bufnr)
    return next(clients) ~= nil
  end, 50)

  out.got_diagnostics = vim.wait(timeout, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out.diagnostics, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message,
    })
  end

  -- Completion after `ON.` on a new last line.
  local text = 'let probe = ON.'
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { text })
  local line = vim.api.nvim_buf_line_count(bufnr) - 1
  vim.api.nvim_win_set_cursor(0, { line + 1, #text })
  vim.wait(500) -- let the client send didChange (it debounces changes)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line, character = #text },
    context = { triggerKind = 2, triggerCharacter = '.' },
  }
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, timeout)
  out.completion_labels = {}
  for _, response in pairs(responses or {}) do
    if response.err then
      table.insert(out.errors, vim.inspect(response.err))
    end
    local result = response.result or {}
    for _, item in ipairs(result.items or result) do
      table.insert(out.completion_labels, item.label)
    end
  end

  -- A change of year reaches the server as workspace/didChangeConfiguration.
  vim.cmd('TaxproYear 2025')
  vim.wait(300)
  -- With no argument: back to the latest year (null).
  vim.cmd('TaxproYear')
  vim.wait(300)
end)
if not ok then
  table.insert(out.errors, tostring(err))
end
finish()
