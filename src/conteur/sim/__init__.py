"""Simulation: odds of attacks and Monte Carlo of whole encounters."""
