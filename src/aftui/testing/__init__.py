"""Helpers for aftui's own tests and benchmarks (no test framework imported here)."""
