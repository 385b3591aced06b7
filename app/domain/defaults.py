"""Values the writers enforce and the front ends announce: free of imports, so `murmur`'s parser can quote
them without loading the store."""

BY_HAND = "Done by hand"  # the reason kept in the history when the user gives none
MAX_MEMORY_CHARS = 300  # a fact, not a document: every request carries the profile
