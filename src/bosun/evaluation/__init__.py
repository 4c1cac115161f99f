"""Evaluation files (DATA_CONTRACT §4): questions, expectations computed by gold SQL, and the
judge."""
