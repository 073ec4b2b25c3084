print("sipwake")
