"""Intent claims across machines through the git remote (DESIGN §12): a claim is a commit at
``refs/paw/claims/<intent>`` pushed with a lease that says the ref must not exist yet."""
