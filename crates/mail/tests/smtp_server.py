"""A real SMTP server on loopback for the mail tests (aiosmtpd), on a port of the kernel's
choosing, printed as its first line of output ("PORT n"). Each message accepted is written
whole to --dir as msg-N.eml. Recipients starting "refuse" get 550 and "later" get 451.
--tls CERT KEY offers STARTTLS and requires it; --mode drop answers like a server but closes
the connection in the middle of DATA, keeping nothing."""

import argparse
import asyncio
import itertools
import logging
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP


class Handler:
    def __init__(self, directory):
        self.directory = directory
        self.numbers = itertools.count(1)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("refuse"):
            return "550 5.1.1 no such user here"
        if address.startswith("later"):
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        path = os.path.join(self.directory, "msg-%d.eml" % next(self.numbers))
        with open(path + ".part", "wb") as f:
            f.write(envelope.original_content)
        os.rename(path + ".part", path)
        return "250 2.0.0 Message accepted"


class Dropper(asyncio.Protocol):
    """Greets, takes EHLO, MAIL, RCPT and DATA, then closes in the middle of the message."""

    def connection_made(self, transport):
        self.transport = transport
        self.data = False
        self.seen = 0
        transport.write(b"220 drop.example ESMTP\r\n")

    def data_received(self, chunk):
        if self.data:
            self.seen += len(chunk)
            self.transport.close()
            return
        for line in chunk.split(b"\r\n"):
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                self.transport.write(b"250-drop.example\r\n250 8BITMIME\r\n")
            elif verb in (b"MAIL", b"RCPT"):
                self.transport.write(b"250 OK\r\n")
            elif verb == b"DATA":
                self.data = True
                self.transport.write(b"354 go ahead\r\n")
            elif verb == b"QUIT":
                self.transport.write(b"221 bye\r\n")
                self.transport.close()


async def main():
    # A client refusing the test certificate is a case the tests make: not news on stderr.
    logging.getLogger("mail.log").setLevel(logging.CRITICAL)
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--mode", default="accept", choices=["accept", "drop"])
    args = parser.parse_args()
    loop = asyncio.get_running_loop()
    if args.mode == "drop":
        server = await loop.create_server(Dropper, "127.0.0.1", 0)
    else:
        handler = Handler(args.dir)
        context = None
        if args.tls:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(args.tls[0], args.tls[1])
        server = await loop.create_server(
            lambda: SMTP(
                handler,
                hostname="smtp.test",
                tls_context=context,
                require_starttls=context is not None,
            ),
            "127.0.0.1",
            0,
        )
    port = server.sockets[0].getsockname()[1]
    print("PORT %d" % port, flush=True)
    # Ends when the test closes our stdin (or kills us).
    await loop.run_in_executor(None, sys.stdin.read)


asyncio.run(main())
