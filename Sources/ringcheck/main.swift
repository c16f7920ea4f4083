print("ringcheck: not built yet")
