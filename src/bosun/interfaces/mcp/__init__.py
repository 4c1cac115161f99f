"""`bosun serve mcp`: Bosun's tools, resources and prompts for MCP clients (the official `mcp` SDK).

Import `bosun.interfaces.mcp.server` only when serving: the SDK is not loaded by the rest of the
CLI.
"""
