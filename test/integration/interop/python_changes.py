"""The official Python MCP SDK (v2) as a model proposing changes through the
stdio bridge (`mcp-shelf connect`): a new file in a folder not there yet, an
edit (which the Node test declines), and edits that match twice or not at all.

Usage: python_changes.py NODE CLI SOCKET URI_PREFIX
Prints one JSON object with what it saw, for the Node test to check.
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters
from mcp.types import Implementation


def summary(result) -> dict:
    return {
        "isError": bool(result.is_error),
        "texts": [c.text for c in result.content if c.type == "text"],
        "structured": result.structured_content,
    }


async def main(node: str, cli: str, socket: str, prefix: str) -> dict:
    server = StdioServerParameters(command=node, args=[cli, "connect", "--socket", socket])
    out: dict = {}
    async with Client(server, client_info=Implementation(name="python-writer", version="2.0")) as client:
        tools = await client.list_tools()
        out["tools"] = sorted(t.name for t in tools.tools)
        text = "# Summary\n\nThe quarterly numbers grew. \u00e9\u20ac\n"
        out["created"] = summary(await client.call_tool("write_resource", {"uri": f"{prefix}/reports/q3/summary.md", "text": text}))
        out["declined"] = summary(
            await client.call_tool("edit_resource", {"uri": f"{prefix}/notes.md", "edits": [{"oldText": "draft", "newText": "final"}]})
        )
        out["twice"] = summary(
            await client.call_tool("edit_resource", {"uri": f"{prefix}/notes.md", "edits": [{"oldText": "line", "newText": "row"}]})
        )
        out["missing"] = summary(
            await client.call_tool("edit_resource", {"uri": f"{prefix}/notes.md", "edits": [{"oldText": "an old draftt line", "newText": "x"}]})
        )
        out["dryRun"] = summary(
            await client.call_tool(
                "edit_resource", {"uri": f"{prefix}/notes.md", "edits": [{"oldText": "draft", "newText": "final"}], "dryRun": True}
            )
        )
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:5]))))
