"""How people and programs reach Bosun: command line (and later API, MCP, web page)."""
