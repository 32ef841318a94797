print("diff-corpus: not yet")
