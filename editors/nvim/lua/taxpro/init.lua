-- TaxPro language server set-up for Neovim.
--
--   require('taxpro').setup({
--     server_path = 'taxpro',   -- the taxpro executable; the client runs `taxpro lsp`
--     year = nil,               -- tax year for parameters; nil = the latest year with data
--     inlay_hints = true,       -- values of tests and constants as inlay hints
--     keymaps = true,           -- K, gd and omni-completion in taxpro buffers (see M.attach_keymaps)
--   })
--
-- Neovim 0.11+: registers the server with vim.lsp.config('taxpro', ...) and vim.lsp.enable('taxpro').
-- Neovim 0.8-0.10: starts it with vim.lsp.start() for each taxpro buffer (one client per root).
-- Neovim 0.7: vim.lsp.start_client() + vim.lsp.buf_attach_client(), one client per root.
-- The root is the nearest directory upwards holding one of `root_markers`, else the file's directory,
-- on every version (0.11's own root_markers would give no root at all without a marker).

local M = {}

M.defaults = {
  server_path = 'taxpro',
  cmd = nil, -- full command; default { server_path, 'lsp' }
  year = nil,
  inlay_hints = true,
  filetypes = { 'taxpro' },
  root_markers = { '.git' },
  autostart = true,
  keymaps = true,
  on_attach = nil,
  capabilities = nil,
}

M.options = nil

-- Clients started by M.start on Neovim 0.7, by root directory.
local clients_by_root = {}

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function options()
  return M.options or M.defaults
end

--- The initializationOptions, and the `taxpro` section of the settings: { year, inlayHints }.
--- A nil year is sent as JSON null: the server then uses the latest year with data.
function M.server_options(opts)
  opts = opts or options()
  local year = opts.year
  if year == nil then
    year = vim.NIL
  end
  return { year = year, inlayHints = opts.inlay_hints and true or false }
end

function M.command(opts)
  opts = opts or options()
  return opts.cmd or { opts.server_path, 'lsp' }
end

local function client_notify(client, method, params)
  if has('0.11') then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

local function get_clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = 'taxpro' })
  end
  local found = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == 'taxpro' then
      table.insert(found, client)
    end
  end
  return found
end

local function enable_inlay_hints(bufnr)
  local hint = vim.lsp.inlay_hint
  if not hint then
    return
  end
  if type(hint) == 'table' and hint.enable then
    -- 0.10+: enable(enable, filter)
    if not pcall(hint.enable, true, { bufnr = bufnr }) then
      pcall(hint.enable, bufnr, true) -- 0.10 pre-releases: enable(bufnr, enable)
    end
  elseif type(hint) == 'function' then
    pcall(hint, bufnr, true) -- 0.10 pre-releases
  end
end

--- Buffer-local key maps and options for a buffer the server is attached to, on every Neovim
--- version (0.7 has no LSP defaults; 0.10+ maps K itself): `K` hover, `gd` go to definition,
--- omni-completion (`i_CTRL-X_CTRL-O`) and tags (`CTRL-]`) through the server. A key that
--- already has a mapping (yours, or Neovim's) is left alone, and so are options already set.
function M.attach_keymaps(bufnr)
  if vim.bo[bufnr].omnifunc == '' then
    vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
  end
  if vim.lsp.tagfunc and vim.bo[bufnr].tagfunc == '' then
    vim.bo[bufnr].tagfunc = 'v:lua.vim.lsp.tagfunc'
  end
  local maps = {
    { 'K', vim.lsp.buf.hover, 'TaxPro: hover' },
    { 'gd', vim.lsp.buf.definition, 'TaxPro: go to definition' },
  }
  vim.api.nvim_buf_call(bufnr, function()
    for _, map in ipairs(maps) do
      if vim.fn.maparg(map[1], 'n') == '' then
        vim.keymap.set('n', map[1], map[2], { buffer = bufnr, desc = map[3] })
      end
    end
  end)
end

local function on_attach(opts)
  return function(client, bufnr)
    if opts.keymaps then
      M.attach_keymaps(bufnr)
    end
    if opts.inlay_hints then
      enable_inlay_hints(bufnr)
    end
    if opts.on_attach then
      opts.on_attach(client, bufnr)
    end
  end
end

--- The nearest directory above the buffer's file that holds one of the markers, else the
--- file's own directory (or the working directory for a buffer without a file).
function M.find_root(bufnr, markers)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  markers = markers or options().root_markers
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.loop.cwd()
  if vim.fs and vim.fs.find then
    local found = vim.fs.find(markers, { upward = true, path = dir })[1]
    return found and vim.fs.dirname(found) or dir
  end
  local current = dir
  while current do
    for _, marker in ipairs(markers) do
      if vim.loop.fs_stat(current .. '/' .. marker) then
        return current
      end
    end
    local parent = vim.fn.fnamemodify(current, ':h')
    if parent == current then
      break
    end
    current = parent
  end
  return dir
end

local function client_config(opts, root)
  local settings = { taxpro = M.server_options(opts) }
  return {
    name = 'taxpro',
    cmd = M.command(opts),
    root_dir = root,
    init_options = M.server_options(opts),
    settings = settings,
    on_attach = on_attach(opts),
    capabilities = opts.capabilities,
  }
end

local warned_missing = false

local function executable(cmd)
  if vim.fn.executable(cmd[1]) == 1 then
    return true
  end
  if not warned_missing then
    warned_missing = true
    vim.notify(
      ("taxpro: cannot run '%s': set server_path in require('taxpro').setup()"):format(cmd[1]),
      vim.log.levels.WARN
    )
  end
  return false
end

--- Start (or reuse) the server for a buffer and attach it. Neovim 0.7-0.10; on 0.11+
--- vim.lsp.enable does this by itself. Returns the client id.
function M.start(bufnr)
  local opts = options()
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not executable(M.command(opts)) then
    return nil
  end
  local root = M.find_root(bufnr, opts.root_markers)
  local config = client_config(opts, root)
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    config.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
    id = vim.lsp.start_client(config)
    clients_by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- Change the tax year (nil = latest) and tell running servers with
--- workspace/didChangeConfiguration { settings = { taxpro = { year, inlayHints } } }.
function M.set_year(year)
  -- A copy with the year set by assignment: tbl_extend would drop a nil year and keep the old one.
  local opts = vim.tbl_extend('force', {}, options())
  opts.year = year
  M.options = opts
  local settings = { taxpro = M.server_options() }
  if has('0.11') and vim.lsp.config then
    -- Servers started from now on (another root) start with the new year too.
    vim.lsp.config('taxpro', { init_options = M.server_options(), settings = settings })
  end
  for _, client in ipairs(get_clients()) do
    client.config.settings = settings
    if client.settings then
      client.settings = settings -- 0.11 answers workspace/configuration from here
    end
    client_notify(client, 'workspace/didChangeConfiguration', { settings = settings })
  end
end

local function create_commands()
  vim.api.nvim_create_user_command('TaxproYear', function(args)
    local year = args.args ~= '' and tonumber(args.args) or nil
    if args.args ~= '' and not year then
      vim.notify('TaxproYear: expected a year such as 2025', vim.log.levels.ERROR)
      return
    end
    M.set_year(year)
  end, { nargs = '?', desc = 'TaxPro: set the tax year (no argument: the latest)' })
end

function M.setup(user)
  local opts = vim.tbl_deep_extend('force', {}, M.defaults, user or {})
  M.options = opts
  create_commands()

  if has('0.11') and vim.lsp.config and vim.lsp.enable then
    vim.lsp.config('taxpro', {
      cmd = M.command(opts),
      filetypes = opts.filetypes,
      -- A function rather than root_markers: without a marker the file's folder is the root,
      -- so sibling files are part of the workspace.
      root_dir = function(bufnr, on_dir)
        on_dir(M.find_root(bufnr, opts.root_markers))
      end,
      init_options = M.server_options(opts),
      settings = { taxpro = M.server_options(opts) },
      on_attach = on_attach(opts),
      capabilities = opts.capabilities,
    })
    if opts.autostart then
      vim.lsp.enable('taxpro')
    end
    return
  end

  if not opts.autostart then
    return
  end
  local group = vim.api.nvim_create_augroup('taxpro_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = opts.filetypes,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  -- Buffers that were opened before setup().
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(opts.filetypes, vim.bo[bufnr].filetype) then
      M.start(bufnr)
    end
  end
end

return M
