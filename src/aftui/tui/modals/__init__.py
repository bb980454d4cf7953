"""Dialogs over any screen: the confirmation, the frame every form shares, the keys of a screen."""
