"""The official Python MCP SDK (v2) finding its way on MCP Shelf as a model
would: the tools it is listed and told about, list_directory, list_resources
within the budget, and paths as a person says them. The SDK validates each
structuredContent against the tool's outputSchema.

Usage: python_wayfinding.py NODE CLI SOCKET FOLDER
Prints one JSON object with what it saw, for the Node test to check.
"""

import asyncio
import json
import os
import sys

from mcp import Client, StdioServerParameters
from mcp.types import Implementation


def text(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


def size(result) -> int:
    return len(text(result)) + len(json.dumps(result.structured_content or {}, separators=(",", ":")))


async def main(node: str, cli: str, socket: str, folder: str) -> dict:
    server = StdioServerParameters(command=node, args=[cli, "connect", "--socket", socket])
    name = os.path.basename(folder)
    out: dict = {}
    async with Client(server, client_info=Implementation(name="python-model", version="2.0")) as client:
        tools = await client.list_tools()
        out["tools"] = [t.name for t in tools.tools]
        out["withOutputSchema"] = sorted(t.name for t in tools.tools if t.output_schema)

        top = await client.call_tool("list_directory", {})
        out["folders"] = [f["path"] for f in top.structured_content["folders"]]
        listed = await client.call_tool("list_directory", {"path": name})
        out["entries"] = [e["path"] for e in listed.structured_content["entries"]]

        pages, sizes, seen, cursor = 0, [], [], None
        while True:
            args = {"cursor": cursor} if cursor else {}
            page = await client.call_tool("list_resources", args)
            sizes.append(size(page))
            seen.extend(r["uri"] for r in page.structured_content["resources"])
            cursor = page.structured_content.get("nextCursor")
            pages += 1
            if not cursor or pages > 20:
                break
        out["list"] = {"pages": pages, "maxSize": max(sizes), "files": len(seen), "unique": len(set(seen))}

        by_path = {}
        for said in [os.path.join(folder, "notes", "a.md"), f"{name}/notes/a.md", "unique-name.txt", "same.md", "/etc/passwd"]:
            r = await client.call_tool("read_resource", {"uri": said})
            by_path[said] = {"isError": bool(r.is_error), "text": text(r)}
        out["paths"] = by_path
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:5]))))
