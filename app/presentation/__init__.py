"""What a result says, in words, alike for every front end: the CLI, the window and the model's tool results.
No toolkit and no printing here: each function returns text for its caller to show."""
