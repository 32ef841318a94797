print("list-bench: not yet")
