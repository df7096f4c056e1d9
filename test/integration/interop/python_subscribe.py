"""The official Python MCP SDK (v2) subscribing to a file by the URI Path.as_uri() writes.

Usage: python_subscribe.py stdio|http TARGET SECRET MODE FILE
  stdio: TARGET is the CLI (dist/electron/cli.js), SECRET the socket; the client
         launches `node TARGET connect --socket SECRET` as a client config would.
  http:  TARGET is the endpoint URL, SECRET the bearer token.
MODE is "legacy" (resources/subscribe) or "2026-07-28" (subscriptions/listen).
Path.as_uri() writes `&` as `%26`, unlike the URI the server lists. The script
appends to FILE once a second until an update arrives (at most 30 s) and prints
one JSON object: the URI it subscribed with and the URI the update named.
"""

import asyncio
import json
import sys
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import Implementation


async def touch_until(file: Path, done: anyio.Event) -> None:
    for i in range(30):
        with file.open("a") as f:
            f.write(f"change {i}\n")
        with anyio.move_on_after(1):
            await done.wait()
        if done.is_set():
            return


async def main(kind: str, target: str, secret: str, mode: str, file_name: str) -> dict:
    file = Path(file_name)
    uri = file.as_uri()
    received: list[str] = []
    done = anyio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            received.append(message.params.uri)
            done.set()

    if kind == "stdio":
        transport = stdio_client(StdioServerParameters(command="node", args=[target, "connect", "--socket", secret]))
        http = None
    else:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {secret}"})
        transport = streamable_http_client(target, http_client=http)
    info = Implementation(name=f"python-subscribe-{mode}", version="2.0")
    async with Client(transport, mode=mode, client_info=info, message_handler=on_message) as client:
        version = client.protocol_version
        if mode == "legacy":
            await client.subscribe_resource(uri)
            await touch_until(file, done)
        else:
            async with client.listen(resource_subscriptions=[uri]) as sub:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(touch_until, file, done)
                    with anyio.move_on_after(32):
                        async for event in sub:
                            received.append(getattr(event, "uri", repr(event)))
                            break
                    done.set()
    if http is not None:
        await http.aclose()
    return {"protocolVersion": version, "subscribed": uri, "received": received[:1]}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:6]))))
