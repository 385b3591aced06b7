"""One run, from the key press (or Enter, `murmur add`, an assistant's call) to the reply: the object that travels
through the stages, what drives them, and what of each is kept for `murmur runs` and `murmur doctor`."""
