-- Feature flags and rate limits for the storefront's OpenResty edge.
--
-- The edge reads /etc/storefront/edge.conf (key = value lines) at start and again on HUP;
-- values are typed by the schema below, and a bad line keeps the previous value instead of
-- taking the whole edge down.

local M = {}

local DEFAULT_PATH = "/etc/storefront/edge.conf"

local function trim(text)
  return (text:gsub("^%s+", ""):gsub("%s+$", ""))
end

--- Parsers by type name: each takes the raw text, returns the value or nil and a reason.
local parsers = {
  number = function(raw)
    local value = tonumber(raw)
    if value == nil then
      return nil, "not a number: " .. raw
    end
    return value
  end,

  boolean = function(raw)
    local lowered = raw:lower()
    if lowered == "true" or lowered == "on" then return true end
    if lowered == "false" or lowered == "off" then return false end
    return nil, "not a boolean: " .. raw
  end,

  list = function(raw)
    local items = {}
    for item in raw:gmatch("[^,]+") do
      items[#items + 1] = trim(item)
    end
    return items
  end,
}

M.schema = {
  checkout_v2 = "boolean",
  max_cart_items = "number",
  requests_per_minute = "number",
  blocked_countries = "list",
}

local Config = {}
Config.__index = Config

--- A config with every key of the schema unset.
function M.new(schema)
  return setmetatable({ values = {}, errors = {}, schema = schema or M.schema }, Config)
end

function Config:set(key, raw)
  local kind = self.schema[key]
  if kind == nil then
    self.errors[#self.errors + 1] = "unknown key: " .. key
    return false
  end
  local value, reason = parsers[kind](raw)
  if value == nil then
    self.errors[#self.errors + 1] = key .. ": " .. reason
    return false
  end
  self.values[key] = value
  return true
end

function Config:get(key, default)
  local value = self.values[key]
  if value == nil then
    return default
  end
  return value
end

--- Reads `key = value` lines; `#` starts a comment, blank lines are skipped.
function Config:load_text(text)
  local line_number = 0
  for line in text:gmatch("[^\n]*") do
    line_number = line_number + 1
    local stripped = trim(line:gsub("#.*$", ""))
    if stripped ~= "" then
      local key, raw = stripped:match("^([%w_]+)%s*=%s*(.+)$")
      if key then
        self:set(key, raw)
      else
        self.errors[#self.errors + 1] = "line " .. line_number .. ": expected key = value"
      end
    end
  end
  return #self.errors == 0
end

M.load_file = function(path)
  local handle, open_error = io.open(path or DEFAULT_PATH, "r")
  if not handle then
    return nil, open_error
  end
  local text = handle:read("*a")
  handle:close()
  local config = M.new()
  config:load_text(text)
  return config
end

function M.is_blocked(config, country)
  for _, blocked in ipairs(config:get("blocked_countries", {})) do
    if blocked == country then
      return true
    end
  end
  return false
end

return M
