"""The API's endpoints: each parses its input, calls one service or selector, and renders."""
