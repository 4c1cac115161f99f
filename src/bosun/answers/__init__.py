"""The answer writer (DESIGN §1): what F14 makes of result tables besides the workers' text.

Below workers and above the query compiler: it reads tables, the Meaning, the catalog and the
grammar, never the planner or a conversation. Charts (`charts`) are Vega-Lite specs chosen from a
table's shape; `notes` words what an answer says about taught words.
"""
