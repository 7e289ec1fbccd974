-- Headless check of the Neovim set-up (tests/test_server_nvim.py): open QLINT_FILE, start
-- `qlint server` (QLINT_CMD, a JSON list) with Neovim's own LSP client, wait for its
-- diagnostics and write them to QLINT_OUT as JSON. Works with Neovim 0.7 (Debian 12's) and later.
local file, out = os.getenv("QLINT_FILE"), os.getenv("QLINT_OUT")
vim.cmd("edit " .. vim.fn.fnameescape(file))
local config = { name = "qlint", cmd = vim.fn.json_decode(os.getenv("QLINT_CMD")), root_dir = os.getenv("QLINT_ROOT") }
if vim.lsp.start then
  vim.lsp.start(config)
else -- 0.7: start the client, then attach the buffer
  vim.lsp.buf_attach_client(0, vim.lsp.start_client(config))
end
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(found, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
                        code = d.code or lsp.code, source = d.source or lsp.source, message = d.message })
end
local fh = assert(io.open(out, "w"))
fh:write(vim.fn.json_encode({ ok = ok, diagnostics = found }))
fh:close()
vim.cmd("qa!")
