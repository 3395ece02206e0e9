// Standard library loader.
