"""The official Python MCP SDK (v2) as a model's client of MCP Shelf: through
the stdio bridge (`mcp-shelf connect`), calling the tools as a model would.

Usage: python_model_reads.py NODE CLI SOCKET URI_PREFIX
Prints one JSON object with what it saw, for the Node test to check.
"""

import asyncio
import hashlib
import json
import sys

from mcp import Client, StdioServerParameters
from mcp.types import Implementation


def texts(result) -> list[str]:
    return [c.text for c in result.content if c.type == "text"]


def kinds(result) -> list[str]:
    return [c.type for c in result.content]


async def main(node: str, cli: str, socket: str, prefix: str) -> dict:
    server = StdioServerParameters(command=node, args=[cli, "connect", "--socket", socket])
    out: dict = {}
    async with Client(server, client_info=Implementation(name="python-model", version="2.0")) as client:
        out["protocolVersion"] = client.protocol_version

        pdf = await client.call_tool("read_resource", {"uri": f"{prefix}/report.pdf"})
        out["pdf"] = {"kinds": kinds(pdf), "texts": texts(pdf)}
        pages = await client.call_tool("read_resource", {"uri": f"{prefix}/report.pdf", "pages": "2-3"})
        out["pdfPages"] = {"texts": texts(pages)}

        image = await client.call_tool("read_resource", {"uri": f"{prefix}/photo.png"})
        block = next(c for c in image.content if c.type == "image")
        out["image"] = {"kinds": kinds(image), "mimeType": block.mime_type, "data": block.data, "texts": texts(image)}

        # The log, a page of 2,000 lines at a time, put back together.
        digest = hashlib.sha256()
        offset, calls = 1, 0
        while offset is not None:
            page = await client.call_tool("read_resource", {"uri": f"{prefix}/app.log", "offset": offset, "limit": 2000})
            calls += 1
            digest.update(page.content[0].text.encode("utf-8"))
            meta = (page.meta or {}).get("dev.mcpshelf/read") or {}
            nxt = meta.get("next")
            offset = nxt["offset"] if nxt else None
        out["log"] = {"sha256": digest.hexdigest(), "calls": calls}
        tail = await client.call_tool("read_resource", {"uri": f"{prefix}/app.log", "offset": -5})
        out["tail"] = texts(tail)
        first = await client.call_tool("read_resource", {"uri": f"{prefix}/app.log"})
        out["defaultRead"] = {"length": len(first.content[0].text), "note": texts(first)[1] if len(texts(first)) > 1 else None}

        binary = await client.call_tool("read_resource", {"uri": f"{prefix}/random.bin"})
        out["binary"] = {"kinds": kinds(binary), "texts": texts(binary), "size": len(json.dumps(binary.model_dump(mode="json")))}

        search = await client.call_tool("search_resources", {"query": "quarterly"})
        out["searchLinks"] = [c.uri for c in search.content if c.type == "resource_link"]
        grep = await client.call_tool("grep_resources", {"pattern": "ERROR [0-9]+", "context": 1})
        out["grep"] = {"texts": texts(grep), "links": [c.uri for c in grep.content if c.type == "resource_link"]}
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:5]))))
