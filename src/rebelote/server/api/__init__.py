"""The server's edge: HTTP routes, WebSocket endpoints, what is refused
before the application reads it, and throttling."""
