"""The general and private chats (S3): the protocol's `send_message`, `conversations`,
`conversation`, `close_conversation`, `general_chat_open|close` and `general_chat`."""
