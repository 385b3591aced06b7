"""What Murmur knows beyond one request: the context under a budget, recall, the user's facts, sessions."""
