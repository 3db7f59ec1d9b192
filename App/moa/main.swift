print("moa")
