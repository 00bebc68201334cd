"""Lupus PBM: the service around the rules engine (web, mail, scheduler, CLI)."""
