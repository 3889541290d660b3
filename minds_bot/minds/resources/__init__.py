"""The Minds API by resource: one class per resource, each a few endpoints over the shared ``Transport``.

``minds_bot.minds.client.MindsClient`` inherits them all, so a caller holds one client object; the place to add an
endpoint is the module its URL names (see the map in ``minds_bot.minds.client``).
Must not touch: Slack, the store.
"""
