print("taxpro")
