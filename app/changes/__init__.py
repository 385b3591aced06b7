"""Changes recorded with their undo records: the executor, undo, the utterance workspace, the interpreters' contract."""
