"""The results' services. MAX_FAVORITES lives here, not in the service, so that the referrals
(which bound follows the same way) read it without importing the results' service at start."""

# A follow is one-way and free; the favorites board reads every favorite's row, so they have
# a bound (decided).
MAX_FAVORITES = 200
