"""The official Python MCP SDK (v2) as a client that does not render MCP Apps,
asking MCP Shelf's browse_shelf tool over Streamable HTTP, then reading the
first file its text names, as a model would.

Usage: python_browse.py URL TOKEN MODE QUERY
Prints one JSON object with what it saw, for the Node test to check.
"""

import asyncio
import json
import re
import sys

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import Implementation


async def main(url: str, token: str, mode: str, query: str) -> dict:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    transport = streamable_http_client(url, http_client=http)
    out: dict = {}
    async with http, Client(transport, mode=mode, client_info=Implementation(name=f"python-{mode}", version="2.0")) as client:
        out["protocolVersion"] = client.protocol_version
        tools = await client.list_tools()
        out["tools"] = [t.name for t in tools.tools]
        browsed = await client.call_tool("browse_shelf", {"query": query})
        text = browsed.content[0].text
        out["isError"] = bool(browsed.is_error)
        out["text"] = text
        first = re.search(r"file://\S+", text)
        out["firstUri"] = first.group(0) if first else None
        if first:
            read = await client.call_tool("read_resource", {"uri": first.group(0)})
            out["read"] = read.content[0].text
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:5]))))
