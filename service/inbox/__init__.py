"""The players' inboxes (issue 48): service/inbox/inbox.py."""
