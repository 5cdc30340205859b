"""Readers of every input format: each turns one input file into records, then documents or rejects.

`read_input` is the entry point. It checks the directory entry (a regular file inside the seeds
directory, bounded in size), picks a reader by extension and confirms it by sniffing the content
(gzip included), and yields the file's documents and rejects in batches, so that no reader holds a
large file's records in memory at once. What it learnt of the file is in the `FileReport`.
"""
