"""The wire protocol: the messages between browsers and the server, and
each seat's redacted view of them."""
