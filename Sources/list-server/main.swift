print("list-server: not yet")
