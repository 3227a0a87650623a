"""``anko-writer tally`` (issue 16): count the readers' votes from a thread's pasted replies.

:mod:`.replies` splits a pasted page into replies by a forum layout (``layouts/*.yaml``), :mod:`.count`
counts one chapter's ballot (:mod:`anko_writer.ballot`) by rules it states, :mod:`.report` prints the
count, and :mod:`.campaign` finds the vote in the written chapters and writes the result into the campaign.
"""

from __future__ import annotations

from .campaign import TallyError, find_ballot, set_decisions, write_campaign
from .count import RULES, Count, count_votes
from .replies import Layout, LayoutError, Reply, load_layout, read_replies, split_replies
from .report import format_count

__all__ = ["Count", "Layout", "LayoutError", "RULES", "Reply", "TallyError", "count_votes", "find_ballot",
           "format_count", "load_layout", "read_replies", "set_decisions", "split_replies", "write_campaign"]
