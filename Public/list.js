// list-server static client: placeholder until the client lands. Intentionally does nothing.
