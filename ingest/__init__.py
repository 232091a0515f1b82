"""Ingestion: turn rule documents in any state into structured, repaired, traceable records."""
