"""chunklib: chunking text for retrieval, the shared library of the Chunking Strategies course.

Import what a lesson uses by name, for example ``from chunklib.windows import n_chunks``.
Module map: see README.md ("The library").
"""

__version__ = "0.1.0"
