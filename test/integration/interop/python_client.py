"""The official Python MCP SDK (v2) as a client of MCP Shelf over Streamable HTTP.

Usage: python_client.py URL TOKEN MODE URI_PREFIX
MODE is "legacy", "auto" or "2026-07-28". Prints one JSON object with what it
saw, for the Node test to check; exits non-zero only if it could not run.
"""

import asyncio
import base64
import json
import sys

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import Implementation


async def main(url: str, token: str, mode: str, prefix: str) -> dict:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    transport = streamable_http_client(url, http_client=http)
    out: dict = {}
    async with http, Client(transport, mode=mode, client_info=Implementation(name=f"python-{mode}", version="2.0")) as client:
        out["protocolVersion"] = client.protocol_version
        names: list[str] = []
        cursor = None
        pages = 0
        while True:
            page = await client.list_resources(cursor=cursor)
            pages += 1
            names += [r.name for r in page.resources]
            cursor = page.next_cursor
            if not cursor:
                break
        out["pages"] = pages
        out["names"] = len(names)
        out["unique"] = len(set(names))
        text = await client.read_resource(f"{prefix}/hello.md")
        out["text"] = text.contents[0].text
        blob = await client.read_resource(f"{prefix}/data.bin")
        out["blob"] = blob.contents[0].blob
        big = await client.read_resource(f"{prefix}/big.txt")
        out["bigLength"] = len(big.contents[0].text)
        binary = await client.read_resource(f"{prefix}/big.bin")
        out["bigBinaryLength"] = len(base64.b64decode(binary.contents[0].blob))
        try:
            await client.read_resource(f"{prefix}/no-such-file.txt")
            out["notFound"] = None
        except MCPError as e:
            out["notFound"] = {"code": e.error.code, "data": e.error.data}
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:5]))))
