"""One run, from the key press (or Enter, `murmur add`, an assistant's call) to the reply: the object that travels
through the stages, what drives them, and the last runs kept for `murmur doctor`."""
